/* system.part_log and system.merges.
 *
 * Part events (a part written by an INSERT, a merge, a part removed) are appended to
 * <path>/system/part_log.tsv, one write(2) per row, like the query log, and read back as
 * system.part_log with ClickHouse's column names. system.merges lists the merges running
 * in this process, with their progress. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"
#include "storage/catalog.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char PART_LOG_STRUCTURE[] =
    "event_type Enum8('NewPart' = 1, 'MergeParts' = 2, 'DownloadPart' = 3, 'RemovePart' = 4, 'MutatePart' = 5, "
    "'MovePart' = 6), event_date Date, event_time DateTime, duration_ms UInt64, database String, table String, "
    "part_name String, partition_id String, rows UInt64, size_in_bytes UInt64, merged_from Array(String), "
    "read_rows UInt64, error UInt16, exception String, merge_algorithm Enum8('Undecided' = 0, 'Vertical' = 1, "
    "'Horizontal' = 2)";
/* Tabs in a row of the current layout. */
#define PART_LOG_TABS 14

/* TSV escaping for the free-text fields. */
static void put_text(buf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '\t': buf_puts(b, "\\t"); break;
        case '\n': buf_puts(b, "\\n"); break;
        case '\\': buf_puts(b, "\\\\"); break;
        case '\'': buf_puts(b, "\\'"); break;
        default: buf_putc(b, *s);
        }
    }
}

void mt_log_event(mt_table *m, int type, const char *part_name, const char *partition_id, uint64_t rows,
                  uint64_t bytes, double duration_s, mt_part *const *from, int nfrom, uint64_t read_rows,
                  int error, const char *exception, int merge_algorithm)
{
    if (!m->part_log)
        return;
    int64_t now = (int64_t)time(NULL);
    char date[16];
    date[dt_format_date(now / 86400, date)] = 0;
    buf b = {0};
    buf_printf(&b, "%d\t%s\t%" PRId64 "\t%" PRIu64 "\t", type, date, now, (uint64_t)(duration_s * 1000));
    put_text(&b, m->t->database);
    buf_putc(&b, '\t');
    put_text(&b, m->t->name);
    buf_putc(&b, '\t');
    put_text(&b, part_name);
    buf_putc(&b, '\t');
    put_text(&b, partition_id);
    buf_printf(&b, "\t%" PRIu64 "\t%" PRIu64 "\t[", rows, bytes);
    for (int i = 0; i < nfrom; i++) {
        buf_puts(&b, i ? ",'" : "'");
        put_text(&b, from[i]->name);
        buf_putc(&b, '\'');
    }
    buf_printf(&b, "]\t%" PRIu64 "\t%d\t", read_rows, error);
    put_text(&b, exception);
    buf_printf(&b, "\t%d\n", merge_algorithm);
    int fd = open(m->part_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, b.p, b.len);
        (void)w; /* the log is best effort: a full disk must not fail the insert */
        close(fd);
    }
    buf_free(&b);
}

void mt_part_log_open(mt_table *m, const char *path)
{
    /* A log written with another layout is set aside, as ClickHouse renames a system log
     * table whose structure changed (part_log_0): reading it would fail. */
    FILE *f = fopen(path, "r");
    if (f) {
        int tabs = 0, ch;
        while ((ch = fgetc(f)) != EOF && ch != '\n')
            tabs += ch == '\t';
        fclose(f);
        if (ch != EOF && tabs != PART_LOG_TABS) {
            char *old = mt_sprintf("%s.0", path);
            rename(path, old);
            free(old);
        }
    }
    m->part_log = xstrdup(path);
}

int mergetree_part_log(query_ctx *q, source **out)
{
    char *path = q->data_path ? mt_sprintf("%s/system/part_log.tsv", q->data_path) : NULL;
    int rc = system_log_source(PART_LOG_STRUCTURE, path, q, out);
    free(path);
    return rc;
}

static void merge_rows(const table *t, mt_table *m, block *b)
{
    double now = clock_monotonic();
    for (mt_merge_info *g = m->merges; g; g = g->next) {
        col_push_str(b->cols[0], t->database, strlen(t->database));
        col_push_str(b->cols[1], t->name, strlen(t->name));
        double el = now - g->start;
        col_push_fixed(b->cols[2], &el);
        uint64_t rr = atomic_load(&g->rows_read), cw = atomic_load(&g->columns_written);
        double prog = g->total_rows ? (double)rr / (double)g->total_rows : 0;
        if (prog > 1)
            prog = 1;
        if (g->vertical && g->columns_total) /* the k-way part and the gathered columns, by column count */
            prog = (prog * (double)(g->columns_total - g->columns_gathered) + (double)cw) /
                   (double)g->columns_total;
        col_push_fixed(b->cols[3], &prog);
        uint64_t np = (uint64_t)g->nsources;
        col_push_fixed(b->cols[4], &np);
        for (int i = 0; i < g->nsources; i++)
            col_push_str(b->cols[5]->inner, g->sources[i], strlen(g->sources[i]));
        col_array_commit(b->cols[5]);
        col_push_str(b->cols[6], g->result_name, strlen(g->result_name));
        col_push_str(b->cols[7], g->partition_id, strlen(g->partition_id));
        uint8_t mut = 0;
        col_push_fixed(b->cols[8], &mut);
        col_push_fixed(b->cols[9], &g->total_bytes);
        col_push_fixed(b->cols[10], &rr);
        uint64_t rw = atomic_load(&g->rows_written);
        col_push_fixed(b->cols[11], &rw);
        col_push_fixed(b->cols[12], &cw);
        const char *alg = g->vertical ? "Vertical" : "Horizontal";
        col_push_str(b->cols[13], alg, strlen(alg));
        b->rows++;
    }
}

int mergetree_system_merges(query_ctx *q, source **out)
{
    static const char *const names[] = {
        "database", "table", "elapsed", "progress", "num_parts", "source_part_names", "result_part_name",
        "partition_id", "is_mutation", "total_size_bytes_compressed", "rows_read", "rows_written",
        "columns_written", "merge_algorithm"};
    const type *s = type_simple(T_STRING), *f = type_simple(T_FLOAT64), *u64 = type_simple(T_UINT64);
    const type *types[] = {s, s, f, f, u64, type_array(s), s, s, type_simple(T_UINT8), u64, u64, u64, u64, s};
    return mt_system_table(q, names, types, (int)(sizeof names / sizeof *names), merge_rows, out);
}
