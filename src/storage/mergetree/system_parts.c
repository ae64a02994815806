/* system.parts: one row per part (active and outdated) of every MergeTree table. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "storage/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_s(column *c, const char *s) { col_push_str(c, s, strlen(s)); }

static void push_u64(column *c, uint64_t v) { col_push_fixed(c, &v); }

/* The partition value as ClickHouse prints it: the value, or a tuple of quoted values. */
static void partition_text(const mt_table *m, const mt_part *p, buf *out)
{
    if (!p->partition || m->part_key.n == 0) {
        buf_puts(out, "tuple()");
        return;
    }
    text_opts o;
    text_opts_default(&o);
    if (m->part_key.n == 1) {
        text_write(out, p->partition->cols[0], 0, TEXT_RAW, &o);
        return;
    }
    buf_putc(out, '(');
    for (int i = 0; i < m->part_key.n; i++) {
        if (i)
            buf_putc(out, ',');
        text_write(out, p->partition->cols[i], 0, TEXT_QUOTED, &o);
    }
    buf_putc(out, ')');
}

int mt_system_table(query_ctx *q, const char *const *names, const type *const *types, int nc, mt_system_rows_fn rows,
                    source **out)
{
    table **tables = NULL;
    int nt = 0;
    if (q->catalog && catalog_list(q->catalog, &tables, &nt))
        return -1;
    schema *sch = schema_new(nc);
    for (int i = 0; i < nc; i++)
        schema_set(sch, i, names[i], types[i]);
    block *b = block_new_empty(sch);
    for (int ti = 0; ti < nt; ti++) {
        table *t = tables[ti];
        if (mt_is_mergetree(t) && t->impl) {
            mt_table *m = t->impl;
            pthread_mutex_lock(&m->lock);
            rows(t, m, b);
            pthread_mutex_unlock(&m->lock);
        }
        table_unref(t);
    }
    free(tables);
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}

/* The minmax column of type id, when the partition key uses exactly one such column. */
static int minmax_of_type(const mt_table *m, type_id id)
{
    int found = -1;
    for (int i = 0; i < m->nminmax; i++)
        if (m->t->sch->types[m->minmax_cols[i]]->id == id) {
            if (found >= 0)
                return -1;
            found = i;
        }
    return found;
}

static void part_rows(const table *t, mt_table *m, block *b)
{
    for (int i = 0; i < m->nparts; i++) {
        const mt_part *p = m->parts[i];
        buf pt = {0};
        partition_text(m, p, &pt);
        col_push_str(b->cols[0], (const char *)pt.p, pt.len);
        buf_free(&pt);
        push_s(b->cols[1], p->name);
        push_s(b->cols[2], "Wide");
        uint8_t active = p->state == PART_ACTIVE;
        col_push_fixed(b->cols[3], &active);
        push_u64(b->cols[4], p->ngranules + (p->ngranules ? 1 : 0));
        push_u64(b->cols[5], p->rows);
        push_u64(b->cols[6], p->bytes_on_disk);
        push_u64(b->cols[7], p->data_compressed_bytes);
        push_u64(b->cols[8], p->data_uncompressed_bytes);
        uint32_t mt = (uint32_t)p->modification_time;
        col_push_fixed(b->cols[9], &mt);
        int64_t mn = p->min_block, mx = p->max_block;
        col_push_fixed(b->cols[10], &mn);
        col_push_fixed(b->cols[11], &mx);
        uint32_t lv = p->level;
        col_push_fixed(b->cols[12], &lv);
        push_s(b->cols[13], p->partition_id);
        push_s(b->cols[14], t->database);
        push_s(b->cols[15], t->name);
        push_s(b->cols[16], t->engine->name);
        push_s(b->cols[17], p->dir);
        for (int k = 0; k < 2; k++) {
            /* min_date/max_date, min_time/max_time: the partition key's Date (DateTime)
             * column's range, when it has exactly one; else zero */
            int mc = minmax_of_type(m, k ? T_DATETIME : T_DATE);
            const column *c = mc >= 0 && p->minmax ? p->minmax[mc] : NULL;
            bool have = c && c->len == 2;
            if (k) {
                uint32_t lo = have ? ((const uint32_t *)c->data.p)[0] : 0, hi = have ? ((const uint32_t *)c->data.p)[1] : 0;
                col_push_fixed(b->cols[20], &lo);
                col_push_fixed(b->cols[21], &hi);
            } else {
                uint16_t lo = have ? ((const uint16_t *)c->data.p)[0] : 0, hi = have ? ((const uint16_t *)c->data.p)[1] : 0;
                col_push_fixed(b->cols[18], &lo);
                col_push_fixed(b->cols[19], &hi);
            }
        }
        b->rows++;
    }
}

int mergetree_system_parts(query_ctx *q, source **out)
{
    static const char *const names[] = {
        "partition", "name", "part_type", "active", "marks", "rows", "bytes_on_disk", "data_compressed_bytes",
        "data_uncompressed_bytes", "modification_time", "min_block_number", "max_block_number", "level",
        "partition_id", "database", "table", "engine", "path", "min_date", "max_date", "min_time", "max_time"};
    const type *s = type_simple(T_STRING), *u64 = type_simple(T_UINT64);
    const type *types[] = {s, s, s, type_simple(T_UINT8), u64, u64, u64, u64, u64, type_simple(T_DATETIME),
                           type_simple(T_INT64), type_simple(T_INT64), type_simple(T_UINT32), s, s, s, s, s,
                           type_simple(T_DATE), type_simple(T_DATE), type_simple(T_DATETIME), type_simple(T_DATETIME)};
    return mt_system_table(q, names, types, (int)(sizeof names / sizeof *names), part_rows, out);
}
