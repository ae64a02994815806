#include "exec/query.h"

#include <inttypes.h>

#include "base/err.h"
#include "base/mem.h"
#include "io/stream.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

double clock_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int query_check(query_ctx *q)
{
    if (atomic_load_explicit(&q->cancelled, memory_order_relaxed))
        return err_set(ERR_QUERY_WAS_CANCELLED, "Query was cancelled.");
    if (mem_tracker_check(&q->mem))
        return -1;
    double limit = settings_float(q->st, "max_execution_time");
    if (limit > 0 && clock_monotonic() - q->start_time > limit)
        return err_set(ERR_TIMEOUT_EXCEEDED, "Timeout exceeded: elapsed %.6f seconds, maximum: %g",
                       clock_monotonic() - q->start_time, limit);
    /* max_rows_to_read (read_overflow_mode = 'throw'): rows read from tables so far. */
    int64_t max_rows = settings_int(q->st, "max_rows_to_read");
    uint64_t read = atomic_load_explicit(&q->read_rows, memory_order_relaxed);
    if (max_rows > 0 && read > (uint64_t)max_rows)
        return err_set(ERR_TOO_MANY_ROWS, "Limit for rows or bytes to read exceeded, max rows: %" PRId64
                                          ", current rows: %" PRIu64, max_rows, read);
    return 0;
}

void query_add_read(query_ctx *q, uint64_t rows, uint64_t bytes)
{
    atomic_fetch_add_explicit(&q->read_rows, rows, memory_order_relaxed);
    atomic_fetch_add_explicit(&q->read_bytes, bytes, memory_order_relaxed);
}

/* Removes "." and ".." components and repeated slashes of an absolute path, in place. */
static void normalize_path(char *p)
{
    char *out = p;
    const char *in = p;
    while (*in) {
        while (*in == '/')
            in++;
        const char *seg = in;
        while (*in && *in != '/')
            in++;
        size_t n = (size_t)(in - seg);
        if (n == 0 || (n == 1 && seg[0] == '.'))
            continue;
        if (n == 2 && seg[0] == '.' && seg[1] == '.') {
            while (out > p && *--out != '/')
                ;
            continue;
        }
        *out++ = '/';
        memmove(out, seg, n);
        out += n;
    }
    if (out == p)
        *out++ = '/';
    *out = 0;
}

int query_file_path(query_ctx *q, const char *path, char **out)
{
    if (!q->user_files_path) {
        *out = xstrdup(path);
        return 0;
    }
    char root[4096], full[8192];
    if (!realpath(q->user_files_path, root))
        snprintf(root, sizeof root, "%s", q->user_files_path);
    normalize_path(root);
    if (path[0] == '/')
        snprintf(full, sizeof full, "%s", path);
    else
        snprintf(full, sizeof full, "%s/%s", root, path);
    normalize_path(full);
    char real[4096];
    const char *check = full;
    if (realpath(full, real))
        check = real; /* an existing file: where its links lead */
    size_t n = strlen(root);
    bool inside = strncmp(check, root, n) == 0 && (check[n] == '/' || check[n] == 0 || (n == 1 && root[0] == '/'));
    if (!inside)
        return err_set(ERR_DATABASE_ACCESS_DENIED, "File is not inside %s", root);
    *out = xstrdup(full);
    return 0;
}

int query_open_input(query_ctx *q, instream **is)
{
    if (q->open_input)
        return q->open_input(q->input_ctx, q, is);
    *is = instream_from_fd(0, "stdin");
    return 0;
}

int query_compile_expr(query_ctx *q, const struct ast *e, const struct source *src, struct expr **out)
{
    if (!q->compile_expr)
        return err_set(ERR_LOGICAL_ERROR, "No expression compiler in this query context");
    return q->compile_expr(e, src, q, out);
}
